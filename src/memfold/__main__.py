"""`python -m memfold`: the same as the `memfold` command."""

from .cli import main

if __name__ == "__main__":
    main()
