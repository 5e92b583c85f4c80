"""Accounts and sessions: argon2 password hashes, signed HttpOnly SameSite cookies.

A session is a random token. The cookie carries it signed (itsdangerous, with
an age limit); the database keeps only the token's hash, so sign-out and a
password change end sessions on the server, whatever cookies remain. A name that
does not exist costs the same time as a wrong password, and both get the same
answer.

Password hashing is slow on purpose (argon2: about a second and 64 MiB here), so
it runs on a pool of its own (``Hashing``): one thread and a short queue, with a
site-wide rate on top of each address's. A flood of sign-ins then waits for,
or is refused by, that pool alone; the storage calls every page makes run on
asyncio's default pool and never queue behind a hash.

A site-wide rate is itself a lock-out a flood can trigger, so each browser
carries a device cookie (a signed random id, a year long; OWASP's "device
cookies"), and every sign-in notes the account's device (a keyed hash, in
``sightings``): signing in to an account from a browser that has signed in to
it before skips the site-wide rate and has slots of the pool kept for it. The
same id keeps one browser's accounts apart in the rated queue.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from itsdangerous import BadSignature, TimestampSigner

from riichi.platform import AccountError, check_name, check_password, name_key
from riichi.platform.accounts import legacy_key
from riichi.server.clock import Clock
from riichi.server.limits import RateLimits
from riichi.server.storage import Account, AccountStore, StorageError

COOKIE = "riichi_session"
SESSION_DAYS = 30
SESSION_SECONDS = SESSION_DAYS * 24 * 3600
DEVICE_COOKIE = "riichi_device"
DEVICE_SECONDS = 365 * 24 * 3600
SIGN_INS = "10 per minute"  # registrations and sign-ins from one address
ALL_SIGN_INS = "120 per minute"  # ... from everybody: what one hashing thread keeps up with
HASH_WORKERS = 1
HASH_QUEUE = 8  # hashes waiting or running at once; more are refused at once
HASH_KEPT = 4  # ... and beyond those, kept for sign-ins from a known device
T = TypeVar("T")


class Hashing:
    """The password hashes' own bounded pool."""

    def __init__(
        self, workers: int = HASH_WORKERS, queue: int = HASH_QUEUE, kept: int = HASH_KEPT
    ) -> None:
        self.pool = ThreadPoolExecutor(workers, thread_name_prefix="riichi-argon2")
        self.queue = queue
        self.kept = kept
        self.pending = 0

    async def run(self, work: Callable[..., T], *args: object, known: bool = False) -> T:
        """``work(*args)`` on the pool; refused at once when the queue is full (a known
        device may use the slots kept beyond it)."""
        if self.pending >= self.queue + (self.kept if known else 0):
            raise AuthError("too many people are signing in right now; try again shortly", 503)
        self.pending += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self.pool, work, *args)
        finally:
            self.pending -= 1

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


class AuthError(AccountError):
    """Refused: a bad name or password, or too many tries."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True, slots=True)
class Session:
    account: Account
    id: str  # the hash the database keeps


def _session_id(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Auth:
    def __init__(self, store: AccountStore, clock: Clock, rates: RateLimits) -> None:
        self.store = store
        self.clock = clock
        self.rates = rates
        self.hasher = PasswordHasher()
        self.hashing = Hashing()
        secret = store.setting("cookie-secret", lambda: secrets.token_hex(32))
        self.signer = TimestampSigner(secret, salt="riichi-session")
        self.devices = TimestampSigner(secret, salt="riichi-device")
        self._address_key = store.setting("address-secret", lambda: secrets.token_hex(32))
        self._dummy = self.hasher.hash(secrets.token_hex(16))

    def address_hash(self, address: str) -> str:
        """What is kept of an address: a keyed hash, enough to tell two apart."""
        key = self._address_key.encode()
        return hmac.new(key, address.encode(), hashlib.sha256).hexdigest()[:32]

    def _limit(self, address: str) -> None:
        if not self.rates.hit(SIGN_INS, f"auth:{address}"):
            raise AuthError("too many sign-ins from your address; wait a minute", 429)

    def _limit_all(self) -> None:
        if not self.rates.hit(ALL_SIGN_INS, "auth:*"):
            raise AuthError("too many people are signing in right now; try again shortly", 503)

    def device(self, cookie: str | None) -> str | None:
        """The device id a browser's cookie carries, if the cookie is ours."""
        if not cookie or len(cookie) > 200:
            return None
        try:
            return self.devices.unsign(cookie, max_age=DEVICE_SECONDS).decode()
        except BadSignature:
            return None

    def new_device(self) -> tuple[str, str]:
        """A fresh device id and the cookie value that carries it."""
        device = secrets.token_hex(16)
        return device, self.devices.sign(device).decode()

    def device_hash(self, device: str) -> str:
        """What is kept of a device id (in ``sightings``, beside addresses)."""
        return "d:" + self.address_hash(f"device/{device}")[:30]

    async def _seen(self, account: Account, address: str, device: str | None) -> None:
        now = self.clock.now()
        await asyncio.to_thread(self.store.seen, account.id, self.address_hash(address), now)
        if device is not None:
            await asyncio.to_thread(self.store.seen, account.id, self.device_hash(device), now)

    async def _new_session(self, account: Account) -> str:
        token = secrets.token_urlsafe(32)
        now = self.clock.now()
        await asyncio.to_thread(
            self.store.create_session, _session_id(token), account.id, now, now + SESSION_SECONDS
        )
        return self.signer.sign(token).decode()

    async def register(
        self, name: object, password: object, address: str, device: str | None = None
    ) -> tuple[Account, str]:
        """A new account, signed in: the account and its cookie value. ``device`` is
        the browser's device id."""
        self._limit(address)
        self._limit_all()
        checked = check_name(name)
        hashed = await self.hashing.run(self.hasher.hash, check_password(password))
        try:
            account = await asyncio.to_thread(
                self.store.create_account, checked, name_key(checked), hashed, self.clock.now()
            )
        except StorageError:
            raise AuthError(f"the name {checked} is taken", 409) from None
        await self._seen(account, address, device)
        return account, await self._new_session(account)

    async def sign_in(
        self, name: object, password: object, address: str, device: str | None = None
    ) -> tuple[Account, str]:
        """The account and a new session's cookie value. ``device`` is the browser's
        device id, if it has one."""
        self._limit(address)
        if not isinstance(name, str) or not isinstance(password, str) or len(password) > 1024:
            raise AuthError("give a name and a password")
        # The name as typed first: an account whose skeleton collided with another's
        # when keys changed kept this form (where none did, the two are one key).
        found = await asyncio.to_thread(self.store.account_login, legacy_key(name))
        if found is None and name_key(name) != legacy_key(name):
            found = await asyncio.to_thread(self.store.account_login, name_key(name))
        known = (
            found is not None
            and device is not None
            and await asyncio.to_thread(self.store.was_seen, found[0].id, self.device_hash(device))
        )
        if not known:
            self._limit_all()
        hashed = found[1] if found is not None else self._dummy
        if not await self.hashing.run(self._verify, hashed, password, known=known) or found is None:
            raise AuthError("wrong name or password", 401)
        if await asyncio.to_thread(self.store.is_suspended, found[0].id):
            raise AuthError(f"the account {found[0].name} is suspended", 403)
        await self._seen(found[0], address, device)
        return found[0], await self._new_session(found[0])

    def _verify(self, hashed: str, password: str) -> bool:
        try:
            return bool(self.hasher.verify(hashed, password))
        except (VerificationError, InvalidHashError):
            return False

    async def session(self, cookie: str | None) -> Session | None:
        """The signed-in account of a cookie value, if its session is alive."""
        if not cookie or len(cookie) > 200:
            return None
        try:
            token = self.signer.unsign(cookie, max_age=SESSION_SECONDS).decode()
        except BadSignature:
            return None
        session_id = _session_id(token)
        account = await asyncio.to_thread(self.store.session_account, session_id, self.clock.now())
        return None if account is None else Session(account, session_id)

    async def sign_out(self, session: Session) -> None:
        await asyncio.to_thread(self.store.revoke_session, session.id)

    async def change_password(self, session: Session, old: object, new: object) -> None:
        """A new password, given the old one; the account's other sessions end."""
        if not isinstance(old, str) or len(old) > 1024:
            raise AuthError("give the current password")
        current = await asyncio.to_thread(self.store.password_hash, session.account.id)
        if not await self.hashing.run(self._verify, current, old):
            raise AuthError("the current password is wrong", 401)
        hashed = await self.hashing.run(self.hasher.hash, check_password(new))
        await asyncio.to_thread(self.store.set_password, session.account.id, hashed, session.id)
