"""The agentic shell: the conversation, the model's proposals, the three gates and reply guards.

The shell proposes and narrates; it never writes booking or payment facts itself. Bookings,
changes and deposits go through the cross-app flows (``orchestration``). The one payments
writer it calls directly is the refund, once the three gates passed it (``agent.services`` →
``payments.services.refund_issue``, which checks the policy again under the payment's lock);
the capstone's world calls it too, to set its scene. Of payments it otherwise only reads: the
refund policy's rules, payment rows, a deposit's amount, and Stripe's outage error.
"""
