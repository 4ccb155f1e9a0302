"""Record, check and replay games of Tinkertown Cemetery, Cave and Zombie Kidz."""

__version__ = "0.1.0"
