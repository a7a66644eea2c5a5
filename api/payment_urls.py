from django.urls import path

from api import payment_endpoints as views

app_name = "payments"
urlpatterns = [
    path("stripe/webhook/", views.stripe_webhook, name="stripe-webhook"),
    path("internal/verify/<str:appointment_id>/", views.verify_payment, name="internal-verify"),
]
