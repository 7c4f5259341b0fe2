"""The prepared case-law database: reading exports, building it, opening it, and searching it (the index)."""
