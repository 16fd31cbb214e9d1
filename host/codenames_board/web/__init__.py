"""The table's web page (placeholder: the lead writes this module)."""
