"""The bounds of the statute operations and of the data they read: how many results, how long a request may be, and
how large an uploaded law, zip or folder may be. The descriptions the agent reads (descriptions.py) state them from
here."""

from __future__ import annotations

DEFAULT_LIMIT = 5
MAX_LIMIT = 20
MAX_KEYWORDS_CHARS = 1_000
MAX_KEYWORDS = 20
MAX_LAW_CHARS = 200
MAX_ARTICLE_CHARS = 100
# How many nearest names a message offers when a law is not found.
NEAREST_NAMES = 5
# Data of this few laws is listed whole when a law is not found (a sample, or a handful of laws uploaded).
LISTED_LAWS = 10
# The most names of a law (titles, short names) a cited_by_keywords expression ORs: within searchCases' 20 terms.
MAX_CITING_NAMES = 8
# The largest law XML read: several times the largest of e-Gov's (租税特別措置法, about 20 MB).
MAX_XML_BYTES = 100 * 1024 * 1024
# All the XML of one upload, once decompressed: several times e-Gov's whole bulk download of current laws (~2 GB).
MAX_TOTAL_XML_BYTES = 8 * 1024**3
# The most entries a zip may list (e-Gov's bulk download: ~9,000 folders, their XML and figures).
MAX_ZIP_ENTRIES = 500_000
# The most versions an article's answer lists: the chosen one and, nearest it, those where the article changes.
MAX_VERSIONS_SHOWN = 12
