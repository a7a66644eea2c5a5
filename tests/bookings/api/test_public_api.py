"""What every public endpoint promises: no cookies, JSON only, a rate limit, a documented
schema."""

import pytest
from django.core.management import call_command
from django.test import Client as HttpClient

from .salon import TUESDAY_9
from .widget import availability, book, hold

API_OPERATIONS = {
    ("/api/v1/businesses/{slug}/services/", "get"),
    ("/api/v1/businesses/{slug}/availability/", "get"),
    ("/api/v1/businesses/{slug}/holds/", "post"),
    ("/api/v1/businesses/{slug}/appointments/", "post"),
    ("/api/v1/manage/{token}/", "get"),
    ("/api/v1/manage/{token}/cancel/", "post"),
    ("/api/v1/manage/{token}/reschedule/", "post"),
    ("/api/v1/businesses/{slug}/conversations/", "post"),
    ("/api/v1/conversations/{token}/", "get"),
    ("/api/v1/conversations/{token}/messages/", "post"),
    ("/api/v1/conversations/{token}/confirm/", "post"),
    ("/api/v1/conversations/{token}/pick/", "post"),
    ("/api/v1/conversations/{token}/hold/", "post"),
    ("/api/v1/conversations/{token}/details/", "post"),
    ("/api/v1/conversations/{token}/verification/", "post"),
    ("/api/v1/conversations/{token}/verification/check/", "post"),
}


def every_kind_of_answer(api: HttpClient, salon) -> list:
    """One request per endpoint, happy and unhappy."""
    booked = book(api, salon, TUESDAY_9)
    manage_url = booked.json()["manage_url"]
    return [
        api.get(f"{salon.base}/services/"),
        api.get("/api/v1/businesses/nobody/services/"),
        availability(api, salon),
        availability(api, salon, to="nonsense"),
        hold(api, salon, "2026-12-01T11:00:00+00:00"),
        hold(api, salon, TUESDAY_9),
        booked,
        book(api, salon, TUESDAY_9),
        book(api, salon, TUESDAY_9, key="another"),
        api.get(manage_url),
        api.post(f"{manage_url}reschedule/", {"start": "x"}, content_type="application/json"),
        api.post(f"{manage_url}cancel/"),
        api.post(f"{manage_url}cancel/"),
        api.get("/api/v1/manage/unknown-token-of-some-length/"),
        api.get("/api/v1/no/such/path/"),
    ]


def test_no_api_answer_sets_a_cookie(api, salon):
    responses = every_kind_of_answer(api, salon)

    assert {response.status_code for response in responses} >= {200, 201, 400, 404, 409}
    for response in responses:
        assert not response.cookies, response.request["PATH_INFO"]
    assert not api.cookies


def test_a_stale_session_cookie_sent_to_the_api_is_left_alone(api, salon):
    # A browser that once signed in to the dashboard sends its old session cookie along.
    api.cookies["sessionid"] = "expired-session-key"

    responses = every_kind_of_answer(api, salon)

    for response in responses:
        assert not response.cookies, response.request["PATH_INFO"]


def test_every_api_answer_is_json(api, salon):
    for response in every_kind_of_answer(api, salon):
        assert response["Content-Type"] == "application/json"
        response.json()


def test_requests_past_the_rate_are_refused_with_429(api, salon, settings):
    # given a rate of three requests a minute
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"public": "3/minute"},
    }

    answers = [api.get(f"{salon.base}/services/").status_code for _ in range(3)]
    refused = availability(api, salon)

    assert answers == [200, 200, 200]
    assert refused.status_code == 429
    assert refused.json()["code"] == "throttled"
    assert int(refused["Retry-After"]) > 0


def test_a_forged_forwarded_for_header_does_not_step_around_the_rate(api, salon, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"public": "2/minute"},
    }

    statuses = [
        api.get(f"{salon.base}/services/", headers={"X-Forwarded-For": f"10.0.0.{n}"}).status_code
        for n in range(3)
    ]

    assert statuses == [200, 200, 429]


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/",
        "/api/v1/businesses/",
        "/api/v1/businesses/a/b/services/",
        "/api/v1/businesses/x/services",
        "/api/v1/manage/a%2Fb/",
    ],
)
def test_a_path_that_names_no_endpoint_answers_a_json_404(api, db, path):
    response = api.get(path)

    assert response.status_code == 404
    assert response.json() == {"detail": "Not found.", "code": "not_found"}


def test_the_schema_documents_every_operation_with_its_error_answers(api, db):
    schema = api.get("/api/schema/", {"format": "json"}).json()

    operations = {
        (path, method): operation
        for path, methods in schema["paths"].items()
        if path.startswith("/api/v1/")
        for method, operation in methods.items()
    }
    assert set(operations) == API_OPERATIONS
    create = operations[("/api/v1/businesses/{slug}/appointments/", "post")]
    assert {"200", "201", "400", "404", "409", "429"} <= set(create["responses"])
    assert any(
        parameter["name"] == "Idempotency-Key" and parameter["required"]
        for parameter in create["parameters"]
    )
    assert not schema.get("components", {}).get("securitySchemes")


def test_the_schema_is_valid_openapi_generated_without_warnings(tmp_path):
    # --fail-on-warn: an undocumented parameter or a guessed type fails here, not in a client
    call_command(
        "spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yaml")
    )

    assert (tmp_path / "schema.yaml").read_text().startswith("openapi: 3")
