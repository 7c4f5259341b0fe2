"""Case-law search: normalisation, dates, courts, the prepared database, search and paged reading.

No event or HTTP code here: the function in functions/search_cases wires these to Bedrock.
"""
