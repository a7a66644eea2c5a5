"""The agentic shell: the conversation, the model's proposals, the three gates and reply guards.

The shell proposes and narrates; it never writes booking or payment facts except through the
core's services, and it never imports payments' writers.
"""
