"""Resumable stage runner and the one-command pipeline `chronoqa run`."""
