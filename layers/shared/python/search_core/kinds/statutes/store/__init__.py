"""The prepared statute database: built from e-Gov's law XML (build.py), opened (database.py), asked (index.py)."""
