from .cli import main

if __name__ == "__main__":  # spawned workers import this module without running it
    main()
