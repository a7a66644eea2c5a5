"""A returning client proves who they are with a one-time code emailed to the address the
business has on file — through the widget's real routes: a right code links the conversation to
them and offers their details back; a wrong, expired, reused or guessed one links nothing;
asking reveals nobody; the code is kept only as a digest."""

import datetime as dt
import re

import pytest
import time_machine
from django.core import mail
from django.core.cache import cache
from django.db import connection
from django.test import Client as HttpClient

from agent.conversation.turns import conversation_for_token
from agent.models import ClientVerification
from agent.verification import codes
from tests.factories import BusinessFactory, ClientFactory

from .chat_http import started
from .conftest import NOW
from .tasks_at_once import tasks_run_at_once  # noqa: F401

CODE = re.compile(r"\b(\d{6})\b")

pytestmark = pytest.mark.usefixtures("tasks_run_at_once")


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def api() -> HttpClient:
    return HttpClient()


@pytest.fixture
def ana(shop):
    return ClientFactory(
        business=shop, name="Ana Pérez", email="Ana.Perez@example.com", phone="+351912345678"
    )


def ask(api, token: str, email: str):
    return api.post(
        f"/api/v1/conversations/{token}/verification/",
        {"email": email},
        content_type="application/json",
    )


def check(api, token: str, code: str):
    return api.post(
        f"/api/v1/conversations/{token}/verification/check/",
        {"code": code},
        content_type="application/json",
    )


def emailed_code(index: int = -1) -> str:
    found = CODE.search(mail.outbox[index].body)
    assert found is not None, mail.outbox[index].body
    return found.group(1)


def verified_client(token: str):
    return conversation_for_token(token).verified_client


@pytest.mark.django_db(transaction=True)
def test_the_right_code_links_the_client_and_offers_their_details_back(api, shop, ana, frozen_now):
    token = started(api, shop.slug)

    asked = ask(api, token, "ana.perez@EXAMPLE.com ")
    assert asked.status_code == 202, asked.content
    assert asked.json()["expires_in"] == 600
    assert [message.to for message in mail.outbox] == [["Ana.Perez@example.com"]]
    assert verified_client(token) is None

    answered = check(api, token, emailed_code())
    assert answered.status_code == 200, answered.content
    assert answered.json() == {"verified": True, "name": "Ana Pérez", "email": "A…@example.com"}
    conversation = conversation_for_token(token)
    assert conversation.verified_client == ana
    assert (conversation.name, conversation.email, conversation.phone) == (
        "Ana Pérez",
        "Ana.Perez@example.com",
        "+351912345678",
    )


@pytest.mark.django_db(transaction=True)
def test_the_code_is_kept_only_as_a_digest(api, shop, ana, frozen_now):
    token = started(api, shop.slug)
    ask(api, token, ana.email)
    code = emailed_code()

    row = ClientVerification.objects.get()
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM agent_clientverification")
        stored = " ".join(str(value) for value in cursor.fetchone())
    assert code not in stored
    assert row.digest != codes.digest(code, salt=row.salt, secret="another secret")


@pytest.mark.django_db(transaction=True)
def test_wrong_codes_are_counted_and_the_sixth_try_is_refused_even_when_right(
    api, shop, ana, frozen_now
):
    token = started(api, shop.slug)
    ask(api, token, ana.email)
    right = emailed_code()
    wrong = f"{(int(right) + 1) % 10**6:06d}"

    left = []
    for _ in range(codes.ATTEMPTS - 1):
        answered = check(api, token, wrong)
        assert answered.status_code == 409
        left.append(answered.json()["attempts_left"])
    last = check(api, token, wrong)
    assert left == [4, 3, 2, 1]
    assert last.json()["code"] == "too_many_attempts"

    after = check(api, token, right)
    assert after.status_code == 409
    assert after.json()["code"] == "too_many_attempts"
    assert verified_client(token) is None


@pytest.mark.django_db(transaction=True)
def test_an_expired_code_links_nothing(api, shop, ana, frozen_now):
    token = started(api, shop.slug)
    ask(api, token, ana.email)
    code = emailed_code()

    with time_machine.travel(NOW + codes.LIFETIME + dt.timedelta(seconds=1), tick=False):
        answered = check(api, token, code)

    assert answered.json()["code"] == "code_expired"
    assert verified_client(token) is None


@pytest.mark.django_db(transaction=True)
def test_a_used_code_cannot_be_used_again_and_a_new_code_replaces_the_old(
    api, shop, ana, frozen_now
):
    token = started(api, shop.slug)
    ask(api, token, ana.email)
    first = emailed_code()
    ask(api, token, ana.email)
    second = emailed_code()

    assert check(api, token, first).json()["code"] in ("wrong_code", "no_code")
    assert check(api, token, second).status_code == 200
    reused = check(api, token, second)
    assert reused.json()["code"] == "no_code"


@pytest.mark.django_db(transaction=True)
def test_an_address_not_on_file_gets_the_same_answer_no_email_and_no_link(
    api, shop, ana, frozen_now
):
    """Nobody learns who is a client by asking; a client of another business is not one here."""
    elsewhere = ClientFactory(
        business=BusinessFactory(time_zone="Europe/Lisbon"), email="bo@example.com"
    )
    token = started(api, shop.slug)

    on_file = ask(api, token, ana.email).json()
    unknown = ask(api, token, elsewhere.email).json()

    assert unknown["expires_in"] == on_file["expires_in"]
    assert unknown["detail"] == on_file["detail"].replace(ana.email, elsewhere.email)
    assert len(mail.outbox) == 1  # only Ana's
    # No code matches the unsent one: every guess is wrong.
    assert check(api, token, "000000").json()["code"] == "wrong_code"
    assert verified_client(token) is None


@pytest.mark.django_db(transaction=True)
def test_at_most_three_codes_an_hour_per_conversation(api, shop, ana, frozen_now):
    token = started(api, shop.slug)
    statuses = [ask(api, token, ana.email).status_code for _ in range(codes.CODES_PER_HOUR + 1)]

    assert statuses == [202, 202, 202, 429]
    assert len(mail.outbox) == codes.CODES_PER_HOUR
    with time_machine.travel(NOW + dt.timedelta(hours=1, seconds=1), tick=False):
        assert ask(api, token, ana.email).status_code == 202


@pytest.mark.django_db(transaction=True)
def test_a_code_of_one_conversation_does_nothing_in_another(api, shop, ana, frozen_now):
    mine, theirs = started(api, shop.slug), started(api, shop.slug)
    ask(api, mine, ana.email)
    ask(api, theirs, "someone@example.com")

    answered = check(api, theirs, emailed_code())

    assert answered.json()["code"] == "wrong_code"
    assert verified_client(theirs) is None


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("body", [{}, {"email": "not-an-address"}, {"email": ["a@b.co"]}])
def test_a_malformed_request_is_a_clear_400(api, shop, frozen_now, body):
    token = started(api, shop.slug)
    response = api.post(
        f"/api/v1/conversations/{token}/verification/", body, content_type="application/json"
    )
    assert response.status_code == 400
    assert "email" in response.json()["errors"]
    assert not ClientVerification.objects.exists()


def test_an_unknown_conversation_is_a_404(api, db):
    assert ask(api, "nope" * 11, "a@example.com").status_code == 404
    assert check(api, "nope" * 11, "123456").status_code == 404


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("on_file", [True, False])
def test_at_most_five_codes_an_hour_per_address_across_conversations(
    api, shop, ana, frozen_now, on_file
):
    """A new chat is a click away; the limit per address holds across chats, and answers the
    same whether or not the address is on file."""
    email = ana.email if on_file else "nobody@example.com"
    statuses = [
        ask(api, started(api, shop.slug), email).status_code
        for _ in range(codes.CODES_PER_ADDRESS_HOUR + 1)
    ]

    assert statuses == [202] * codes.CODES_PER_ADDRESS_HOUR + [429]


@pytest.mark.django_db(transaction=True)
def test_no_new_code_once_twenty_wrong_tries_were_made_at_an_address_in_a_day(
    api, shop, ana, frozen_now
):
    tries = 0
    for hour in range(5):
        with time_machine.travel(NOW + dt.timedelta(hours=hour, minutes=1), tick=False):
            token = started(api, shop.slug)
            assert ask(api, token, ana.email).status_code == 202
            for _ in range(codes.ATTEMPTS - 1):
                check(api, token, "000000")
                tries += 1
    assert tries >= codes.TRIES_PER_ADDRESS_DAY

    with time_machine.travel(NOW + dt.timedelta(hours=6), tick=False):
        refused = ask(api, started(api, shop.slug), ana.email)
    with time_machine.travel(NOW + dt.timedelta(days=1, hours=6), tick=False):
        next_day = ask(api, started(api, shop.slug), ana.email)

    assert refused.status_code == 429
    assert next_day.status_code == 202


@pytest.mark.django_db(transaction=True)
def test_an_address_that_grows_past_the_limit_when_lower_cased_is_a_clear_400(
    api, shop, frozen_now
):
    email = "a" * 60 + "@" + ".".join(["İ" * 40] * 4) + ".com"  # 228 characters, 388 lowered
    response = ask(api, started(api, shop.slug), email)

    assert response.status_code == 400
    assert "email" in response.json()["errors"]
