"""Normalization stages: coreference and entity linking."""
