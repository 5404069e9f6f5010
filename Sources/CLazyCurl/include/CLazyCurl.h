// Loads libcurl on first use instead of at process start (Linux).
//
// FoundationNetworking's URLSession runs on libcurl, and libcurl brings some twenty libraries
// (GnuTLS, Kerberos, LDAP, SSH, ...) that a `roadmapctl` command reading only local files
// never needs. The release build of `roadmapctl` links Foundation statically (see
// Package.swift) and takes libcurl's functions from here: the first call of each loads
// libcurl.so.4 (or the file named by ROADMAPBRIDGE_CURL_LIBRARY) with dlopen. In other builds
// libFoundationNetworking.so has libcurl loaded already and these functions find it.
#ifndef CLAZYCURL_H
#define CLAZYCURL_H

/// Loads libcurl if it is not loaded yet: 1 when it is, else 0 with why in `error`.
int rb_curl_load(char *error, unsigned long size);

#endif
