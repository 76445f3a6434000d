"""`python -m memfold`: the same as the `memfold` command."""

from .launch import main

if __name__ == "__main__":
    main()
