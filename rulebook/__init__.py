"""Rulebooks generated from the rules: sentences, assembly, templates, the language reference."""
