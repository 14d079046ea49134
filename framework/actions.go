package framework

import (
	"net/http"

	"github.com/go-drf/drf/framework/request"
)

// ViewAction is the name of a viewset action (DRF's self.action): one of
// the standard actions, from which generic views and routers build views
// ("list", "create", "retrieve", "update", "partial_update", "destroy"),
// an extra action's name in snake_case, or "metadata" for OPTIONS.
type ViewAction string

// The standard actions.
const (
	ActionList          ViewAction = "list"
	ActionCreate        ViewAction = "create"
	ActionRetrieve      ViewAction = "retrieve"
	ActionUpdate        ViewAction = "update"
	ActionPartialUpdate ViewAction = "partial_update"
	ActionDestroy       ViewAction = "destroy"
)

// StandardActions are the standard actions in DRF's order.
var StandardActions = []ViewAction{ActionList, ActionCreate, ActionRetrieve, ActionUpdate, ActionPartialUpdate, ActionDestroy}

// Detail reports whether the action's route names one item ("{prefix}/{pk}/").
func (a ViewAction) Detail() bool { return a != ActionList && a != ActionCreate }

// HTTPMethod is the method of the requests the action answers.
func (a ViewAction) HTTPMethod() string {
	switch a {
	case ActionCreate:
		return http.MethodPost
	case ActionUpdate:
		return http.MethodPut
	case ActionPartialUpdate:
		return http.MethodPatch
	case ActionDestroy:
		return http.MethodDelete
	}
	return http.MethodGet
}

// Writes reports whether the action changes the stored items.
func (a ViewAction) Writes() bool { return a.HTTPMethod() != http.MethodGet }

// ActionMetadata is the action of an OPTIONS request (DRF's implicit
// "metadata" action).
const ActionMetadata ViewAction = "metadata"

// Action returns the action r's method serves on v (DRF's self.action):
// v.Actions' entry, HEAD taking GET's, and ActionMetadata for OPTIONS;
// "" when v names no action for the method. An extra action is its name
// in snake_case ("set_password").
func (v *View) Action(r *request.Request) ViewAction {
	switch r.Method {
	case http.MethodOptions:
		return ActionMetadata
	case http.MethodHead:
		if a, ok := v.Actions[http.MethodHead]; ok {
			return a
		}
		return v.Actions[http.MethodGet]
	}
	return v.Actions[r.Method]
}

// ExtraAction is an entry of the browsable page's Extra Actions menu: an
// extra action's view name ("Set password") and its route's name, which
// the page reverses with the shown route's URL parameters.
type ExtraAction struct {
	Name, Route string
}
