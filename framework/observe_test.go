package framework_test

import (
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/request"
)

// recorder is an Observer that keeps the steps it is told of.
type recorder struct{ steps []framework.Step }

func (o *recorder) Observe(_ *request.Request, s framework.Step) { o.steps = append(o.steps, s) }

// TestObserverSteps: the observer is told which scheme decided and how,
// and how the permissions and throttles decided.
func TestObserverSteps(t *testing.T) {
	o := &recorder{}
	api := framework.NewAPI(nil, framework.Settings{Observer: o,
		Authentication: framework.Authenticators(headerScheme{}),
		Permissions:    framework.Permissions(framework.IsAuthenticated{})})
	api.Handle("/x/", framework.View{Get: func(*framework.View, *request.Request) (*framework.Response, error) {
		return framework.OK(nil), nil
	}})
	c := apitest.New(t, api)
	for _, tc := range []struct {
		header             string
		status             int
		policy, auth, perm string
	}{
		{"X-User: alice", 200, "framework_test.headerScheme", framework.OutcomeAuthenticated, framework.OutcomeAllowed},
		{"X-User: bad", 403, "framework_test.headerScheme", framework.OutcomeFailed, ""},
		{"X-Other: 1", 403, "", framework.OutcomeAnonymous, framework.OutcomeDenied},
	} {
		o.steps = nil
		if r := c.Get("/x/", tc.header); r.Status != tc.status {
			t.Fatalf("%q: %d", tc.header, r.Status)
		}
		if len(o.steps) == 0 || o.steps[0].Kind != framework.StepAuthentication || o.steps[0].Policy != tc.policy || o.steps[0].Outcome != tc.auth {
			t.Fatalf("%q: steps %+v", tc.header, o.steps)
		}
		if o.steps[0].End.Before(o.steps[0].Start) || o.steps[0].Start.IsZero() {
			t.Errorf("%q: step times %v %v", tc.header, o.steps[0].Start, o.steps[0].End)
		}
		if tc.perm == "" {
			if len(o.steps) != 1 {
				t.Errorf("%q: steps after a failed authentication: %+v", tc.header, o.steps)
			}
			continue
		}
		if len(o.steps) < 2 || o.steps[1].Kind != framework.StepPermissions || o.steps[1].Outcome != tc.perm || o.steps[1].Policy != "framework.IsAuthenticated" {
			t.Errorf("%q: steps %+v", tc.header, o.steps)
		}
	}
}
