package sample

import (
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/throttling"
)

// rateLimited is /beyond/ratelimit/: a burst of 3 requests per 10 seconds
// within 5 per minute, per user (per address when anonymous), each
// answer telling the client its quota in the IETF RateLimit fields
// (docs/beyond-drf.md).
func rateLimited() framework.View {
	return framework.View{
		Name:      "Rate Limited",
		Throttles: framework.Throttles(throttling.RateThrottle{Scope: "ratelimit", Rates: []string{"3/10s", "5/minute"}, Headers: true}),
		Get: func(*framework.View, *request.Request) (*framework.Response, error) {
			return framework.OK(map[string]string{"detail": "Within the limits: 3 requests per 10 seconds, 5 per minute."}), nil
		},
	}
}
