"""Fitted and tuned settings: the scripts that choose the shipped weights and thresholds on the
development halves, and a study of how far a fitted model could go."""
