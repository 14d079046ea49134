"""Run DRF 3.18's own tests/test_pagination.py on real DRF, and print which
of its tests pass.

DRF's tests are not in this repository: give the "tests" directory of a
DRF 3.18 checkout (git archive 3.18.0 tests). Run with Debian's Django
3.2 / DRF 3.14, and with the DRF 3.18 / Django 5.2 of
conformance/reference/drf318 (scripts/install-references lays it out):

    /usr/bin/python3 internal/drfsuite/drf_suite_pagination.py DRF/tests \
        > internal/drfsuite/drf_suite_pagination_drf314.json
    PYTHONPATH=conformance/reference/drf318 /usr/bin/python3 internal/drfsuite/drf_suite_pagination.py DRF/tests \
        > internal/drfsuite/drf_suite_pagination_drf318.json

Most of the file is written for pytest, which is not installed: plain
classes with setup_method, a parametrized method and a module-level
function, which Django's test runner does not collect. They are run here
as pytest runs them (a new instance and setup_method for each test, one
test per parameter, named "method[parameter]"); the TestCase classes run
under Django's test runner, with the settings of DRF's conftest.py. It
prints, as JSON, the versions and each test's "pass" or its failure's
last line, under "tests/test_pagination.py"; drfsuite.Suite holds the
port to what it prints.
"""
import inspect
import json
import os
import sys
import traceback
import types
import unittest

tests_dir = os.path.abspath(sys.argv[1])
sys.path.insert(0, os.path.dirname(tests_dir))


class _Info:
    value = None


class _Raises:
    def __init__(self, exc):
        self.exc, self.info = exc, _Info()

    def __enter__(self):
        return self.info

    def __exit__(self, typ, value, tb):
        if typ is None:
            raise AssertionError("DID NOT RAISE %r" % self.exc)
        if issubclass(typ, self.exc):
            self.info.value = value
            return True
        return False


class _Mark:
    @staticmethod
    def parametrize(name, values):
        def mark(fn):
            fn.parametrize = (name, values)
            return fn
        return mark

    def __getattr__(self, name):
        return lambda *a, **k: (lambda obj: obj)


pytest = types.ModuleType("pytest")
pytest.raises = _Raises
pytest.fixture = lambda fn=None, **k: fn if fn else (lambda f: f)
pytest.mark = _Mark()
sys.modules["pytest"] = pytest

import django  # noqa: E402
from django.conf import settings  # noqa: E402

settings.configure(
    DEBUG_PROPAGATE_EXCEPTIONS=True,
    DEFAULT_AUTO_FIELD="django.db.models.AutoField",
    DATABASES={
        "default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"},
        "secondary": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"},
    },
    SITE_ID=1,
    SECRET_KEY="not very secret in tests",
    USE_I18N=True,
    STATIC_URL="/static/",
    ROOT_URLCONF="tests.urls",
    TEMPLATES=[{"BACKEND": "django.template.backends.django.DjangoTemplates", "APP_DIRS": True, "OPTIONS": {"debug": True}}],
    MIDDLEWARE=(
        "django.middleware.common.CommonMiddleware",
        "django.contrib.sessions.middleware.SessionMiddleware",
        "django.contrib.auth.middleware.AuthenticationMiddleware",
        "django.contrib.messages.middleware.MessageMiddleware",
    ),
    INSTALLED_APPS=(
        "django.contrib.admin", "django.contrib.auth", "django.contrib.contenttypes", "django.contrib.sessions",
        "django.contrib.sites", "django.contrib.staticfiles", "django.contrib.messages", "rest_framework",
        "rest_framework.authtoken", "tests.authentication", "tests.generic_relations", "tests.importable", "tests",
    ),
    PASSWORD_HASHERS=("django.contrib.auth.hashers.MD5PasswordHasher",),
)
django.setup()

import rest_framework  # noqa: E402
from django.test.runner import DiscoverRunner  # noqa: E402

FILE = "tests/test_pagination.py"
results = {}


def outcome(err):
    kind = "fail" if issubclass(err[0], AssertionError) else "error"
    return kind + ": " + "".join(traceback.format_exception(*err)).strip().splitlines()[-1]


def run(name, call):
    try:
        call()
    except Exception:
        results[name] = outcome(sys.exc_info())
    else:
        results[name] = "pass"


class Result(unittest.TextTestResult):
    def addSuccess(self, test):
        results["%s.%s" % (type(test).__name__, test._testMethodName)] = "pass"
        super().addSuccess(test)

    def addFailure(self, test, err):
        results["%s.%s" % (type(test).__name__, test._testMethodName)] = outcome(err)
        super().addFailure(test, err)

    addError = addFailure


def pytest_style(cls):
    """Runs the tests of a plain class as pytest does."""
    for method in sorted(m for m in dir(cls) if m.startswith("test")):
        fn = getattr(cls, method)
        cases = [(method, {})]
        if hasattr(fn, "parametrize"):
            arg, values = fn.parametrize
            cases = [("%s[%s]" % (method, v), {arg: v}) for v in values]
        for name, kwargs in cases:
            def call(name=method, kwargs=kwargs):
                obj = cls()
                if hasattr(obj, "setup_method"):
                    obj.setup_method()
                getattr(obj, name)(**kwargs)
            run("%s.%s" % (cls.__name__, name), call)


# The module is loaded before the test databases are made, so that the
# models it declares have tables.
module = __import__("tests.test_pagination", fromlist=["*"])
runner = DiscoverRunner(verbosity=0)
runner.setup_test_environment()
runner.setup_databases()
cases = unittest.TestSuite()
for name, obj in sorted(vars(module).items()):
    if inspect.isclass(obj) and name.startswith("Test") and obj.__module__ == module.__name__:
        if issubclass(obj, unittest.TestCase):
            cases.addTests(unittest.defaultTestLoader.loadTestsFromTestCase(obj))
        else:
            pytest_style(obj)
    elif inspect.isfunction(obj) and name.startswith("test"):
        run(name, obj)
with open(os.devnull, "w") as devnull:
    unittest.TextTestRunner(resultclass=Result, verbosity=0, stream=devnull).run(cases)
print(json.dumps({"versions": {"drf": rest_framework.__version__, "django": django.get_version()},
                  "results": {FILE: results}}, indent=1, sort_keys=True))
