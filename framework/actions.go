package framework

import "net/http"

// ViewAction is one of DRF's standard viewset actions, from which generic
// views and routers build views: "list", "create", "retrieve", "update",
// "partial_update", "destroy".
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
