"""Perturbed copies of audited answers with the labels they claim, checked for soundness."""
