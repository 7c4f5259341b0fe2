"""e-Gov's law data, read safely: one law XML into a LawVersion (law_xml.py), the folders of a bulk download from a
zip or a directory (bundle.py)."""
