"""Run DRF 3.18's own tests/test_generics.py, test_viewsets.py,
test_routers.py, authentication/test_authentication.py, test_authtoken.py,
test_versioning.py and test_reverse.py (or, given "permissions" after the
directory, test_permissions.py and test_throttling.py; given "pagination",
test_pagination.py) on real DRF, and print which methods pass.

DRF's tests are not in this repository: give the "tests" directory of a
DRF 3.18 checkout (git archive 3.18.0 tests). Run with Debian's Django
3.2 / DRF 3.14, and with the DRF 3.18 / Django 5.2 of
conformance/reference/drf318 (scripts/install-references lays it out):

    /usr/bin/python3 internal/drfsuite/drf_suite.py DRF/tests \
        > internal/drfsuite/drf_suite_drf314.json
    PYTHONPATH=conformance/reference/drf318 /usr/bin/python3 internal/drfsuite/drf_suite.py DRF/tests \
        > internal/drfsuite/drf_suite_drf318.json

and so with "DRF/tests permissions" into drf_suite_permissions_drf31x.json
and "DRF/tests pagination" into drf_suite_pagination_drf31x.json.

pytest, which DRF's suite runs under, is not installed: the few names the
files use (raises, fixture, mark.parametrize) are given here, and the
tests run under Django's test runner with the settings of DRF's
conftest.py. The pytest-style tests run as pytest runs them: a plain
class's (Test*, not a TestCase) each test on a new instance after its
setup_method, one test per parameter named "method[parameter]", and a
module's test functions; a failing subTest fails its method. DRF
3.14 has no SimpleRouter(use_regex_path=...) (3.15): it is accepted and
ignored there, so that test_routers.py loads. It prints, as JSON, the
versions and, by file, each method's "pass", its failure's last line or,
in the permissions group, its skip's reason. That group runs with
django-guardian (Debian's python3-django-guardian) installed as DRF's
conftest.py installs it, so that ObjectPermissionsIntegrationTests runs
rather than being skipped.
drfsuite.Suite holds each ported file to what it prints.
"""
import contextlib
import inspect
import json
import os
import sys
import types
import unittest

tests_dir = os.path.abspath(sys.argv[1])
sys.path.insert(0, os.path.dirname(tests_dir))
group = (sys.argv[2:] or [""])[0]
permissions = group == "permissions"


class _Info:
    value = None


@contextlib.contextmanager
def _raises(exc):
    info = _Info()
    try:
        yield info
    except exc as e:
        info.value = e
        return
    raise AssertionError("DID NOT RAISE %r" % exc)


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
pytest.raises = _raises
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
    ) + (("guardian",) if permissions else ()),
    PASSWORD_HASHERS=("django.contrib.auth.hashers.MD5PasswordHasher",),
    **({"ANONYMOUS_USER_ID": -1, "AUTHENTICATION_BACKENDS": (
        "django.contrib.auth.backends.ModelBackend", "guardian.backends.ObjectPermissionBackend")} if permissions else {}),
)
django.setup()

import rest_framework  # noqa: E402
from django.test.runner import DiscoverRunner  # noqa: E402
from rest_framework import routers  # noqa: E402

if "use_regex_path" not in routers.SimpleRouter.__init__.__code__.co_varnames:
    _simple, _default = routers.SimpleRouter.__init__, routers.DefaultRouter.__init__

    def _simple_init(self, trailing_slash=True, use_regex_path=True):
        _simple(self, trailing_slash)

    def _default_init(self, *args, use_regex_path=True, **kwargs):
        _default(self, *args, **kwargs)

    routers.SimpleRouter.__init__, routers.DefaultRouter.__init__ = _simple_init, _default_init

FILES = ["test_generics", "test_viewsets", "test_routers", "authentication.test_authentication", "test_authtoken",
         "test_versioning", "test_reverse"]
FILES = {"permissions": ["test_permissions", "test_throttling"], "pagination": ["test_pagination"]}.get(group, FILES)
results = {"tests/%s.py" % f.replace(".", "/"): {} for f in FILES}


class Result(unittest.TextTestResult):
    def _record(self, test, outcome):
        module, cls, method = test.id().rsplit(".", 2)
        name = method if getattr(test, "functions", False) else "%s.%s" % (cls, method)
        results["%s.py" % module.replace(".", "/")][name] = outcome

    def addSuccess(self, test):
        self._record(test, "pass")
        super().addSuccess(test)

    def addFailure(self, test, err):
        self._record(test, "fail: " + self._exc_info_to_string(err, test).strip().splitlines()[-1])
        super().addFailure(test, err)

    def addError(self, test, err):
        self._record(test, "error: " + self._exc_info_to_string(err, test).strip().splitlines()[-1])
        super().addError(test, err)

    def addSkip(self, test, reason):
        if permissions:
            self._record(test, "skip: " + reason)
        super().addSkip(test, reason)

    def addSubTest(self, test, subtest, err):
        if err is not None:
            failure = issubclass(err[0], test.failureException)
            self._record(test, ("fail: " if failure else "error: ") +
                         self._exc_info_to_string(err, test).strip().splitlines()[-1])
        super().addSubTest(test, subtest, err)


def pytest_classes(module):
    """The module's pytest-style tests as TestCases: a plain class (Test*,
    not a TestCase) as a TestCase of the same name whose each test calls a
    new instance's after its setup_method, one test per parameter; the
    module's test functions as a TestCase whose tests are named as they
    are."""
    def call(cls, method, kwargs):
        def test(self):
            obj = cls()
            if hasattr(obj, "setup_method"):
                obj.setup_method()
            getattr(obj, method)(**kwargs)
        return test

    cases, functions = [], {}
    for name, obj in vars(module).items():
        if getattr(obj, "__module__", None) != module.__name__:
            continue
        if name.startswith("Test") and isinstance(obj, type) and not issubclass(obj, unittest.TestCase):
            methods = {}
            for m in (m for m in dir(obj) if m.startswith("test")):
                arg, values = getattr(getattr(obj, m), "parametrize", (None, None))
                for test, kwargs in ([("%s[%s]" % (m, v), {arg: v}) for v in values] if arg else [(m, {})]):
                    methods[test] = call(obj, m, kwargs)
            cases.append(type(name, (unittest.TestCase,), dict(methods, __module__=module.__name__, __qualname__=name)))
        elif name.startswith("test") and inspect.isfunction(obj):
            functions[name] = (lambda fn: lambda self: fn())(obj)
    if functions:
        cases.append(type("functions", (unittest.TestCase,), dict(functions, functions=True, __module__=module.__name__)))
    return cases


# The modules are loaded before the test databases are made, so that the
# models they declare have tables.
suite = unittest.TestSuite(unittest.defaultTestLoader.loadTestsFromName("tests." + f) for f in FILES)
for f in FILES:
    for case in pytest_classes(sys.modules["tests." + f]):
        suite.addTests(unittest.defaultTestLoader.loadTestsFromTestCase(case))
runner = DiscoverRunner(verbosity=0)
runner.setup_test_environment()
runner.setup_databases()
with open(os.devnull, "w") as devnull:
    unittest.TextTestRunner(resultclass=Result, verbosity=0, stream=devnull).run(suite)
print(json.dumps({"versions": {"drf": rest_framework.__version__, "django": django.get_version()}, "results": results},
                 indent=1, sort_keys=True))
