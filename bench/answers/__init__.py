"""Answers: how often ``answered`` is right on real documentation, whether it can be talked into
a wrong subject or value, and the LLM-backed modes against a real model."""
