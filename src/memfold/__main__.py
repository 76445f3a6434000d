"""`python -m memfold`: the same as the `memfold` command."""

from memfold.cli.launch import main

if __name__ == "__main__":
    main()
