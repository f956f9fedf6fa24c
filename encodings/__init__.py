"""Package data: the ASP encodings (see README in this folder)."""
