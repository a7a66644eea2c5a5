"""A returning client proves who they are before a conversation may see or act on their
bookings: a one-time code sent to the email address the business has on file for them."""
