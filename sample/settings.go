package sample

import (
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/browsable"
	"github.com/go-drf/drf/framework/pagination"
)

// settings are the global settings every view starts from (Django's
// REST_FRAMEWORK setting); views override what they need.
func (a *app) settings() framework.Settings {
	return framework.Settings{
		// Other Host headers are refused (400) before any view runs.
		AllowedHosts: a.allowedHosts,

		// Tried in this order; the first that authenticates wins.
		Authentication: framework.Authenticators(a.sessionAuth(), a.tokenAuth(), a.basicAuth()),
		Permissions:    framework.Permissions(framework.AllowAny{}),

		Pagination: &pagination.PageNumberPagination{},
		PageSize:   10,

		// No versioning unless a view sets a scheme; these apply when it does.
		DefaultVersion:  "v1",
		AllowedVersions: framework.Versions("v1", "v2"),

		// JSON first, so that it is the default; HTML for browsers.
		Renderers: framework.Renderers(framework.JSONRenderer{}, browsable.Renderer{CSRFToken: a.sessions.Protection().Token}),

		// The rate of the throttled token view, counted in the instance's
		// memory unless the instances share a cache (ThrottleCache).
		ThrottleRates: map[string]string{"anon": "3/minute"},
		ThrottleCache: a.throttleCache,

		// Problem details on /beyond/problems/, DRF's bodies elsewhere
		// (problems.go).
		ExceptionHandler: exceptionHandler,

		// Logs and telemetry (docs/operations.md).
		Logger:   a.logger,
		Observer: a.observer,

		// DRF 3.18 on Django 5.2 unless $DRF_COMPAT asks for 3.14.
		Compatibility: a.compat,
	}
}
