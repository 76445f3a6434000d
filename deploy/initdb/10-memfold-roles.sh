#!/bin/sh
# The roles and database memfold needs, made once, when the postgres container initialises
# an empty data directory (the image runs /docker-entrypoint-initdb.d/*.sh as POSTGRES_USER):
#
#   memfold_owner   owns the database and the schema; runs `memfold db upgrade` and the
#                   admin commands (`memfold server ...`); not a superuser, so row-level
#                   security binds it too
#   memfold_app     NOLOGIN, no BYPASSRLS: what the server may do (the migration grants it)
#   memfold_server  the login `memfold serve` connects with, a member of memfold_app
#
# memfold_app is made here, before the first `memfold db upgrade`, so the owner needs no
# CREATEROLE.  The passwords come from the container's environment (deploy/compose.yaml).
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres \
    -v owner_password="$MEMFOLD_OWNER_PASSWORD" \
    -v server_password="$MEMFOLD_SERVER_PASSWORD" <<'SQL'
CREATE ROLE memfold_owner LOGIN PASSWORD :'owner_password';
CREATE ROLE memfold_app NOLOGIN NOSUPERUSER NOBYPASSRLS;
CREATE ROLE memfold_server LOGIN PASSWORD :'server_password' IN ROLE memfold_app;
CREATE DATABASE memfold OWNER memfold_owner;
SQL
