"""What memory must never hold, found in text: secrets (secrets.py, detect-secrets'
plugins) and planted instructions (injection.py). Pure functions on a string; each hit
is a line (1-based) and the char span in that line, never the value itself."""
