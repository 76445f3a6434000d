"""The `memfold` command: the front door (launch), the commands by family, the warm process."""
