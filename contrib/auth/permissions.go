package auth

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/contrib/contenttypes"
	"github.com/go-drf/drf/contrib/internal/tables"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/store"
)

// Model names one model of a service as Django's contenttypes and auth
// apps know it: its content type (django_content_type) and its default
// permissions (auth_permission).
type Model struct {
	// AppLabel is the model's app label (_meta.app_label), e.g. "bookshelf".
	AppLabel string
	// Name is the model's lower-case name (_meta.model_name), e.g. "book".
	Name string
	// VerboseName is the model's verbose_name, which the permissions'
	// names use ("Can add book"); "" means Name.
	VerboseName string
}

// Models are the models of Django's auth and contenttypes apps, in
// Django's order, for PermissionsMigration.
var Models = []Model{
	{AppLabel: "auth", Name: "permission"},
	{AppLabel: "auth", Name: "group"},
	{AppLabel: "auth", Name: "user"},
	{AppLabel: "contenttypes", Name: "contenttype", VerboseName: "content type"},
}

// defaultPermissions are Django's default_permissions, in its order.
var defaultPermissions = [...]string{"add", "change", "delete", "view"}

// CreatePermissions creates what db lacks of the content types of models
// and of their default permissions (add_, change_, delete_ and view_
// MODEL, named "Can add VERBOSE NAME" ...), as Django's post_migrate
// handlers create_contenttypes and create_permissions do after each
// migrate: rows that exist are left as they are, so it may run again.
// Give the models in the order of Django's INSTALLED_APPS and of each
// app's models, and the ids are Django's. The rows are written in the
// transaction of db that ctx carries, if any (a RunGo's, store.Atomic).
func CreatePermissions(ctx context.Context, db *sqlx.DB, models ...Model) error {
	types, err := tables.Of[contenttypes.ContentType](db)
	if err != nil {
		return err
	}
	perms, err := tables.Of[Permission](db)
	if err != nil {
		return err
	}
	for _, m := range models {
		if m.AppLabel == "" || m.Name == "" || m.Name != strings.ToLower(m.Name) {
			return fmt.Errorf("auth: model %q.%q needs an app label and a lower-case name", m.AppLabel, m.Name)
		}
		ct := contenttypes.ContentType{AppLabel: m.AppLabel, Model: m.Name}
		if _, err := types.GetOrCreate(ctx, &ct, "app_label", "model"); err != nil {
			return fmt.Errorf("auth: content type %s.%s: %w", m.AppLabel, m.Name, err)
		}
		verbose := m.VerboseName
		if verbose == "" {
			verbose = m.Name
		}
		for _, action := range defaultPermissions {
			p := Permission{Name: "Can " + action + " " + verbose, ContentTypeID: ct.ID, Codename: action + "_" + m.Name}
			if _, err := perms.GetOrCreate(ctx, &p, "content_type", "codename"); err != nil {
				return fmt.Errorf("auth: permission %s.%s: %w", m.AppLabel, p.Codename, err)
			}
		}
	}
	return nil
}

// PermissionsMigration returns a migration, recorded as app.name, that
// runs CreatePermissions for models in the migrated database: put it
// after the migrations that create their tables. Django would create the
// same rows after its own migrate, and the migration adds only what is
// missing, so a database Django migrated is left as it is. Like any
// migration it runs once: the models of a later version need a
// PermissionsMigration of their own, under another name.
func PermissionsMigration(app, name string, models ...Model) migrations.Migration {
	return migrations.Migration{App: app, Name: name, Operations: []migrations.Operation{migrations.RunGo{Func: func(ctx context.Context, _ *sqlx.Tx) error {
		return CreatePermissions(ctx, migrations.DBFrom(ctx), models...)
	}}}}
}

// permCache holds a user's permissions once read: Django's _perm_cache.
type permCache struct {
	mu    sync.Mutex
	perms map[string]bool
}

var _ framework.PermissionsUser = (*User)(nil)

// BindDB sets the database HasPerm reads the user's permissions from,
// and empties their cache. Users binds the users it reads and creates;
// code that reads a user otherwise (a source of its own) binds it
// itself.
func (u *User) BindDB(db *sqlx.DB) {
	u.db, u.perms = db, &permCache{}
}

// HasPerm reports whether the user has perm ("app_label.codename"), as
// Django's user.has_perm(perm) with the ModelBackend: an active
// superuser has every permission, an inactive user none, other users
// their own (auth_user_user_permissions) and those of their groups
// (auth_group_permissions). The permissions are read once and kept in u
// for its life (Django's per-request cache): a user read for a request
// sees the permissions of that moment.
func (u *User) HasPerm(ctx context.Context, perm string) (bool, error) {
	return u.HasPerms(ctx, perm)
}

// HasPerms reports whether the user has every one of perms (Django's
// has_perms; none is always true).
func (u *User) HasPerms(ctx context.Context, perms ...string) (bool, error) {
	if len(perms) == 0 || (u.Active && u.Superuser) {
		return true, nil
	}
	if !u.Active {
		return false, nil
	}
	all, err := u.loadPerms(ctx)
	if err != nil {
		return false, err
	}
	for _, p := range perms {
		if !all[p] {
			return false, nil
		}
	}
	return true, nil
}

// errUnbound reports a user HasPerm cannot read the permissions of.
var errUnbound = errors.New("auth: the user was not read through Users, and has no database to read its permissions from (BindDB)")

// loadPerms reads the user's permissions once, as ModelBackend's
// get_all_permissions: Permission.objects.filter(user=u) and
// filter(group__user=u), in one query, with their content types.
func (u *User) loadPerms(ctx context.Context) (map[string]bool, error) {
	if u.db == nil || u.perms == nil {
		return nil, errUnbound
	}
	c := u.perms
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.perms != nil {
		return c.perms, nil
	}
	src, err := permissions(u.db)
	if err != nil {
		return nil, err
	}
	id := strconv.FormatInt(u.ID, 10)
	rows, err := src.SelectRelated("content_type").Match(queryset.Or(
		queryset.Lookup("user__id", query.Exact, id),
		queryset.Lookup("group__user__id", query.Exact, id))).Slice(ctx, 0, -1)
	if err != nil {
		return nil, err
	}
	perms := make(map[string]bool, len(rows))
	for _, p := range rows {
		perms[p.ContentType.AppLabel+"."+p.Codename] = true
	}
	c.perms = perms
	return perms, nil
}

// permissions is the source of Permission over db, once User and Group
// are described: its lookups reach them across their many-to-many
// fields.
func permissions(db *sqlx.DB) (*queryset.SQLSource[Permission], error) {
	if _, err := tables.Of[User](db); err != nil {
		return nil, err
	}
	if _, err := tables.Of[Group](db); err != nil {
		return nil, err
	}
	return tables.Of[Permission](db)
}

// ErrUnknownPermission is returned for a permission name that is not
// "app_label.codename" of a row of auth_permission.
var ErrUnknownPermission = errors.New("auth: no such permission")

// permissionID finds the permission named "app_label.codename" (split at
// the first dot, as Django's permission commands do).
func permissionID(ctx context.Context, db *sqlx.DB, perm string) (int32, error) {
	app, codename, ok := strings.Cut(perm, ".")
	if !ok || app == "" || codename == "" || !store.StorableText(perm) {
		return 0, fmt.Errorf("%w: %q is not APP_LABEL.CODENAME", ErrUnknownPermission, perm)
	}
	// The lookup across content_type reads ContentType's declaration,
	// which its source describes.
	if _, err := tables.Of[contenttypes.ContentType](db); err != nil {
		return 0, err
	}
	src, err := tables.Of[Permission](db)
	if err != nil {
		return 0, err
	}
	found, err := src.Match(queryset.Lookup("content_type__app_label", query.Exact, app),
		queryset.Lookup("codename", query.Exact, codename)).Slice(ctx, 0, 2)
	if err != nil {
		return 0, err
	}
	if len(found) != 1 {
		return 0, fmt.Errorf("%w: %s", ErrUnknownPermission, perm)
	}
	return found[0].ID, nil
}

// GrantPermission adds perm ("app_label.codename") to u's own permissions
// (Django's user.user_permissions.add(perm)); having it already is not an
// error. An unknown permission is ErrUnknownPermission. It empties u's
// permission cache.
func (s *Users) GrantPermission(ctx context.Context, u *User, perm string) error {
	defer u.BindDB(s.DB)
	id, err := permissionID(ctx, s.DB, perm)
	if err != nil {
		return err
	}
	src, err := tables.Of[User](s.DB)
	if err != nil {
		return err
	}
	return src.AddRelated(ctx, u, "user_permissions", strconv.FormatInt(int64(id), 10))
}

// RevokePermission removes perm from u's own permissions (Django's
// user.user_permissions.remove(perm)); not having it is not an error,
// and the permissions of u's groups stay. An unknown permission is
// ErrUnknownPermission. It empties u's permission cache.
func (s *Users) RevokePermission(ctx context.Context, u *User, perm string) error {
	defer u.BindDB(s.DB)
	id, err := permissionID(ctx, s.DB, perm)
	if err != nil {
		return err
	}
	src, err := tables.Of[User](s.DB)
	if err != nil {
		return err
	}
	return src.RemoveRelated(ctx, u, "user_permissions", strconv.FormatInt(int64(id), 10))
}
