package authtoken

import (
	"cmp"
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"log/slog"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/internal/tables"
	"github.com/go-drf/drf/contrib/sessions"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/internal/pycompat"
)

//go:embed templates/*.html
var templateFS embed.FS

// templates are the pages' templates, parsed when a page is first shown.
var templates = sync.OnceValue(func() *template.Template {
	return template.Must(template.ParseFS(templateFS, "templates/*.html"))
})

// adminPageSize is how many tokens a page of the admin lists.
const adminPageSize = 100

// Admin is the admin page of tokens, an http.Handler to mount at any path:
// it lists the tokens (newest first, 100 a page, ?page=N; any number
// past the last page shows the last), creates the token of a user given
// by raw id, regenerates and deletes tokens. As in Django's admin, only
// active staff users logged in through Sessions may use it, and each
// thing needs its permission in Django's
// tables (auth.User.HasPerm; an active superuser has them all): the list
// authtoken.view_token or authtoken.change_token, creating add_token,
// regenerating change_token, deleting delete_token; the page offers only
// what the user may do. Anonymous visitors are redirected to the login
// page, other users get 403. Every change is a POST checked by Sessions'
// CSRF protection.
//
// As DRF 3.18's TokenAdmin (the level of Sessions.Compatibility), each
// token's user is named by UsernameField, Django's USERNAME_FIELD (#9836),
// the list is ordered by it, and a search box finds the tokens whose
// user's UsernameField holds every term of ?q=, ignoring case, as
// Django's admin searches (#8934). At DRF 3.14 level the list is newest
// first, and has no search.
type Admin struct {
	// Tokens stores the tokens.
	Tokens *Tokens
	// Users finds the users tokens are created for.
	Users *auth.Users
	// Sessions authenticates the staff user and checks CSRF.
	Sessions *sessions.Manager
	// LoginURL is where anonymous visitors are sent, with ?next=;
	// "" gives "/api-auth/login/".
	LoginURL string
	// UsernameField is the user model's USERNAME_FIELD: the column of
	// auth_user that names a user, "username" ("" gives it) or "email".
	// Any other answers 500 and logs the misconfiguration.
	UsernameField string
}

// usernameFields are the columns of auth_user UsernameField may name.
var usernameFields = map[string]func(*auth.User) string{
	"username": func(u *auth.User) string { return u.Username },
	"email":    func(u *auth.User) string { return u.Email },
}

// adminToken is a token in the list, with its user's name.
type adminToken struct {
	*Token
	Name string
}

type adminPage struct {
	// CanAdd, CanChange and CanDelete show the forms the user may use.
	CanAdd, CanChange, CanDelete bool

	Username, Field, CSRF string
	Message, Error        string
	Tokens                []adminToken
	Total                 int
	Previous, Next        string
	// Search shows the search box, with Query in it; Searched when Query
	// has terms, Matches the tokens that match them.
	Search, Searched bool
	Query            string
	Matches          int
}

var adminMessages = map[string]string{
	"created":     "The token was created.",
	"regenerated": "The token was regenerated.",
	"deleted":     "The token was deleted.",
}

// ServeHTTP answers GET and HEAD with the list and POST with a change.
func (a *Admin) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	u, err := a.Sessions.SessionUser(r)
	if err != nil {
		a.serverError(w, r, err)
		return
	}
	if u == nil {
		login := a.LoginURL
		if login == "" {
			login = "/api-auth/login/"
		}
		http.Redirect(w, r, login+"?next="+url.QueryEscape(r.URL.RequestURI()), http.StatusFound)
		return
	}
	page := adminPage{Username: u.GetUsername(), Message: adminMessages[pycompat.QueryGet(pycompat.RequestGET(r), "done")]}
	var canView bool
	if pu, ok := u.(framework.PermissionsUser); ok && u.IsActive() && u.IsStaff() {
		for _, p := range []struct {
			perm string
			can  *bool
		}{{"authtoken.view_token", &canView}, {"authtoken.add_token", &page.CanAdd},
			{"authtoken.change_token", &page.CanChange}, {"authtoken.delete_token", &page.CanDelete}} {
			if *p.can, err = pu.HasPerms(r.Context(), p.perm); err != nil {
				a.serverError(w, r, err)
				return
			}
		}
	}
	if !canView && !page.CanChange {
		a.forbidden(w, u)
		return
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		a.render(w, r, http.StatusOK, page)
	case http.MethodPost:
		if !a.Sessions.CheckForm(w, r) {
			return
		}
		may, known := map[string]bool{"create": page.CanAdd, "regenerate": page.CanChange, "delete": page.CanDelete}[r.PostFormValue("action")]
		if known && !may {
			a.forbidden(w, u)
			return
		}
		done, msg, err := a.change(r)
		switch {
		case err != nil:
			a.serverError(w, r, err)
		case msg != "":
			page.Message, page.Error = "", msg
			a.render(w, r, http.StatusBadRequest, page)
		default:
			http.Redirect(w, r, "?done="+done, http.StatusSeeOther)
		}
	default:
		w.Header().Set("Allow", "GET, HEAD, POST")
		http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
	}
}

// change applies the posted action; msg explains a request it refuses.
func (a *Admin) change(r *http.Request) (done, msg string, err error) {
	ctx := r.Context()
	action := r.PostFormValue("action")
	if action == "delete" {
		err := a.Tokens.Delete(ctx, r.PostFormValue("key"))
		if errors.Is(err, ErrNotFound) {
			return "", "That token does not exist.", nil
		}
		return "deleted", "", err
	}
	raw := strings.TrimSpace(r.PostFormValue("user_id"))
	id, convErr := strconv.ParseInt(raw, 10, 64)
	if convErr != nil {
		return "", "Enter the id of a user (a whole number).", nil
	}
	if _, err := a.Users.Get(ctx, id); errors.Is(err, auth.ErrNotFound) {
		return "", "User " + strconv.FormatInt(id, 10) + " does not exist.", nil
	} else if err != nil {
		return "", "", err
	}
	switch action {
	case "create":
		_, created, err := a.Tokens.GetOrCreate(ctx, id)
		if err == nil && !created {
			return "", "That user already has a token; regenerate it instead.", nil
		}
		return "created", "", err
	case "regenerate":
		_, err := a.Tokens.Regenerate(ctx, id)
		return "regenerated", "", err
	}
	return "", "Unknown action.", nil
}

func (a *Admin) render(w http.ResponseWriter, r *http.Request, status int, page adminPage) {
	field := cmp.Or(a.UsernameField, "username")
	name, ok := usernameFields[field]
	if !ok {
		a.serverError(w, r, fmt.Errorf("authtoken.Admin: UsernameField %q is not a column of auth_user that names a user (username, email)", field))
		return
	}
	get := pycompat.RequestGET(r)
	var terms []string
	if page.Search = a.Sessions.Compatibility != compat.DRF314; page.Search {
		page.Query = pycompat.QueryGet(get, "q")
		if strings.Contains(page.Query, "\x00") {
			// Django's search form refuses it, and lists every token.
			page.Error, page.Query = "Null characters are not allowed.", ""
		}
		terms = searchTerms(page.Query)
		page.Searched = len(terms) > 0
	}
	n, _ := strconv.Atoi(pycompat.QueryGet(get, "page"))
	n = min(max(n, 1), math.MaxInt/adminPageSize)
	l := tokenList{db: a.Tokens.DB, column: field, terms: terms, byName: page.Search}
	toks, matches, total, err := l.page(r.Context(), (n-1)*adminPageSize)
	if last := max(1, (matches+adminPageSize-1)/adminPageSize); err == nil && n > last {
		n = last
		toks, matches, total, err = l.page(r.Context(), (n-1)*adminPageSize)
	}
	if err != nil {
		a.serverError(w, r, err)
		return
	}
	page.Total, page.Matches = total, matches
	for _, t := range toks {
		page.Tokens = append(page.Tokens, adminToken{Token: t, Name: name(t.User)})
	}
	link := func(n int) string {
		q := url.Values{"page": {strconv.Itoa(n)}}
		if page.Searched {
			q.Set("q", page.Query)
		}
		return "?" + q.Encode()
	}
	if n > 1 {
		page.Previous = link(n - 1)
	}
	if n*adminPageSize < matches {
		page.Next = link(n + 1)
	}
	page.Field = a.Sessions.Protection().Field()
	page.CSRF = a.Sessions.Protection().Token(w, r)
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "max-age=0, no-cache, no-store, must-revalidate, private")
	h.Set("X-Frame-Options", "DENY")
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_ = templates().ExecuteTemplate(w, "admin.html", page)
	}
}

// tokenList is the admin's list: the tokens whose user's column holds
// every term, ordered by it (byName, DRF 3.18) or newest first (DRF 3.14),
// and the tokens' primary key, descending, as Django's admin orders.
type tokenList struct {
	db     *sqlx.DB
	column string
	terms  []string
	byName bool
}

// page returns adminPageSize tokens with their users after skipping
// offset, how many match and how many there are.
func (l tokenList) page(ctx context.Context, offset int) (toks []*Token, matches, total int, err error) {
	// The lookups across user read the User model's declaration, which
	// its source describes.
	if _, err := tables.Of[auth.User](l.db); err != nil {
		return nil, 0, 0, err
	}
	src, err := tables.Of[Token](l.db)
	if err != nil {
		return nil, 0, 0, err
	}
	if total, err = src.Count(ctx); err != nil {
		return nil, 0, 0, err
	}
	// Django's admin search over search_fields ("user__username"): each
	// term in the user's column, ignoring case.
	searched := src
	for _, term := range l.terms {
		searched = searched.Match(queryset.Lookup("user__"+l.column, query.IContains, term))
	}
	matches = total
	if len(l.terms) > 0 {
		if matches, err = searched.Count(ctx); err != nil {
			return nil, 0, 0, err
		}
	}
	order := []query.Order{{Field: "created", Desc: true}, {Field: "user_id", Desc: true}}
	if l.byName {
		order = []query.Order{{Field: "user__" + l.column}, {Field: "key", Desc: true}}
	}
	// The users joined in, as Django's admin reads a list_display of
	// the user (list_select_related).
	if toks, err = searched.SelectRelated("user").OrderBy(order...).Slice(ctx, offset, adminPageSize); err != nil {
		return nil, 0, 0, err
	}
	for _, t := range toks {
		t.User.BindDB(l.db)
	}
	return toks, matches, total, nil
}

// forbidden answers 403 with the page that names the user.
func (a *Admin) forbidden(w http.ResponseWriter, u request.User) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusForbidden)
	_ = templates().ExecuteTemplate(w, "forbidden.html", u.GetUsername())
}

// serverError logs err on the Sessions' Logger and answers 500.
func (a *Admin) serverError(w http.ResponseWriter, r *http.Request, err error) {
	logger := a.Sessions.Logger
	if logger == nil {
		logger = slog.Default()
	}
	logger.ErrorContext(r.Context(), "internal server error", "method", r.Method, "path", r.URL.Path, "error", err.Error())
	http.Error(w, "A server error occurred.", http.StatusInternalServerError)
}
