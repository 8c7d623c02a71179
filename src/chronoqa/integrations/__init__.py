"""Harness integrations: chronoqa releases as tasks of evaluation harnesses.

* :mod:`chronoqa.integrations.inspect`: an ``inspect_ai`` task (closed-book and RAG variants over the
  prompt protocols, chronoqa's own A / T / AT as the scorer); ``pip install chronoqa[inspect]``.

Each module imports its harness when imported; without it, the import raises
:class:`~chronoqa.errors.ChronoqaError` naming the extra to install.
"""
