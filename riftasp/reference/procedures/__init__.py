"""The scheduling procedures of the reference engine, one module each, chosen by the manifest's
`procedure` name through riftasp/reference/registry.py."""
