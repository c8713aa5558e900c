"""Screens pushed over the panes: editing, history, help, confirmations, search."""
