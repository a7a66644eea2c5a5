"""Settings split by where Ordina runs: base (shared), local (the demo), test, production.

Every value that differs between machines comes from the environment through the one
``env`` object defined in ``base``; the README lists each variable.
"""
