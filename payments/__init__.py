"""Payments: Stripe deposits, verified webhooks, reconciliation and refunds.

Only a verified server-to-server caller (a signed Stripe webhook, or reconciliation asking
Stripe directly) may mark a payment paid. Neither the client's word nor the model's text is an
input here.
"""
