// Package interop holds the tests that a service on this framework and a
// Django site share one database as docs/django.md describes: users hashed
// by every Django hasher, rehashed on login on either side, tokens, and
// logins in Django's own session format, each way. The Django side is real
// Django (Debian's python3-django, python3-argon2, python3-bcrypt), run by
// the tests from testdata; without it they skip, unless CI_REQUIRE_DJANGO
// is set. They run against Debian 12's Django 3.2, then again (TestMain)
// against Django 5.2 where conformance/reference/drf318 holds it
// (scripts/install-references lays it out from Debian's packages;
// scripts/install-test-deps runs it).
package interop
