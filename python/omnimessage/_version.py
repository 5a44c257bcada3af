"""The release: the one place its number is written (hatch, `dev/build-dist.sh` and the generator read it)."""

__version__ = "0.1.0"
