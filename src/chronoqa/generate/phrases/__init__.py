"""Default phrase tables of the KG builder (package data): one TOML file per dataset."""
