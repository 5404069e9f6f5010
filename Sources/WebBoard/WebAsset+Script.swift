extension WebAsset {
  /// The script's text: voting with a per-browser voter id, and the suggestion form.
  ///
  /// The voter id lives in `localStorage` (`roadmapbridge.voter`) and is copied into the
  /// `rb_voter` cookie (path `/b`), so the server draws the page with this browser's votes
  /// pressed. Votes go to the board API (`POST`/`DELETE …/features/:id/vote` with
  /// `X-Voter-ID`), the same counter the apps vote in.
  static let js = #"""
    (function () {
      "use strict";
      var body = document.body;
      var api = body.getAttribute("data-api");
      if (!api) { return; }
      var KEY = "roadmapbridge.voter";
      var COOKIE = "rb_voter";

      function newID() {
        if (window.crypto && crypto.randomUUID) { return crypto.randomUUID(); }
        var bytes = new Uint8Array(16);
        crypto.getRandomValues(bytes);
        return Array.prototype.map.call(bytes, function (b) {
          return (b + 256).toString(16).slice(1);
        }).join("");
      }
      var VALID = /^[A-Za-z0-9_\-.:@+=\/]{1,128}$/;
      // The id the server drew the page for: the cookie's, when the API would accept it.
      function cookieVoter() {
        var parts = document.cookie.split(/;\s*/);
        for (var i = 0; i < parts.length; i++) {
          if (parts[i].indexOf(COOKIE + "=") === 0) {
            var value = parts[i].slice(COOKIE.length + 1);
            if (VALID.test(value)) { return value; }
          }
        }
        return null;
      }
      var drawnFor = cookieVoter();
      var stored = null;
      try { stored = window.localStorage.getItem(KEY); } catch (e) { stored = null; }
      if (stored && !VALID.test(stored)) { stored = null; }
      // One browser, one voter: the id in localStorage; where that is gone (cleared) or
      // unavailable (private mode, storage blocked), the cookie's id, which this script wrote;
      // a new id only when neither holds one.
      var voter = stored || drawnFor;
      var fresh = false;
      if (!voter) { voter = newID(); fresh = true; }
      if (voter !== stored) {
        try { window.localStorage.setItem(KEY, voter); } catch (e) { /* the cookie keeps it */ }
      }
      // The server drew the page for the cookie's voter. That is this voter's state only when
      // the ids match; a new voter holds no votes; a known voter whose cookie was missing or
      // named another id asks for its votes.
      var drawnForVoter = voter === drawnFor;
      if (fresh) {
        Array.prototype.forEach.call(
          document.querySelectorAll(".vote-button[data-feature]"), function (button) {
            button.setAttribute("aria-pressed", "false");
          });
      }
      // Secure where the page came over HTTPS: the id names this browser's votes, and a
      // cookie without it would also go out, in clear, on any unencrypted request to this host.
      document.cookie = COOKIE + "=" + voter + "; Path=/b; Max-Age=31536000; SameSite=Lax" +
        (window.location.protocol === "https:" ? "; Secure" : "");

      var status = document.getElementById("vote-status");
      function say(text) { if (status) { status.textContent = text; } }

      var reasons = {
        voting_disabled_project: "Voting is closed for this project.",
        voting_disabled_board: "Voting is closed on this board.",
        voting_disabled_stage: "Voting is closed in this stage.",
        rate_limited: "Too many votes at once. Try again in a moment.",
        feature_not_found: "This feature is no longer on the board.",
        store_unavailable: "The server could not save your vote. Try again later."
      };

      function buttonsFor(id) {
        return document.querySelectorAll('.vote-button[data-feature="' + id + '"]');
      }
      function show(id, votes, voted) {
        Array.prototype.forEach.call(buttonsFor(id), function (button) {
          button.setAttribute("aria-pressed", voted ? "true" : "false");
          button.querySelector(".vote-count").textContent = String(votes);
          button.querySelector(".vote-noun").textContent = votes === 1 ? "vote" : "votes";
        });
      }
      function state(button) {
        return {
          votes: parseInt(button.querySelector(".vote-count").textContent, 10) || 0,
          voted: button.getAttribute("aria-pressed") === "true"
        };
      }
      function request(method, path, body) {
        var headers = { "X-Voter-ID": voter, "Accept": "application/json" };
        if (body !== undefined) { headers["Content-Type"] = "application/json"; }
        return fetch(api + path, {
          method: method, headers: headers, credentials: "same-origin",
          body: body === undefined ? undefined : JSON.stringify(body)
        }).then(function (response) {
          return response.text().then(function (text) {
            var json = null;
            try { json = text ? JSON.parse(text) : null; } catch (e) { json = null; }
            return {
              ok: response.ok, status: response.status, json: json,
              retryAfter: parseInt(response.headers.get("Retry-After") || "", 10)
            };
          });
        });
      }
      function failure(answer) {
        var error = answer && answer.json && answer.json.error;
        if (error && reasons[error.code]) { return reasons[error.code]; }
        if (error && error.message) { return error.message; }
        return "The server refused (HTTP " + (answer ? answer.status : "?") + ").";
      }

      var busy = {};
      var touched = {};
      function toggle(button) {
        var id = button.getAttribute("data-feature");
        if (busy[id]) { return; }
        var before = state(button);
        var wanted = !before.voted;
        busy[id] = true;
        touched[id] = true;
        button.setAttribute("aria-busy", "true");
        show(id, Math.max(0, before.votes + (wanted ? 1 : -1)), wanted);
        say("");
        request(wanted ? "POST" : "DELETE", "/features/" + id + "/vote").then(function (answer) {
          if (answer.ok && answer.json && typeof answer.json.votes === "number") {
            show(id, answer.json.votes, answer.json.voted === true);
            say(answer.json.voted ? "Vote counted." : "Vote removed.");
          } else {
            show(id, before.votes, before.voted);
            say(failure(answer));
          }
        }, function () {
          show(id, before.votes, before.voted);
          say("Could not reach the server; your vote was not changed.");
        }).then(function () {
          busy[id] = false;
          button.removeAttribute("aria-busy");
        });
      }

      // This voter's votes, in a few requests: each column and the list name the listing
      // (GET …/features?…) they were drawn from in data-votes, which answers `voted` for every
      // feature on it. Only features a listing no longer holds (a page on its own, a feature
      // that moved) are asked for one by one, and only a few. A busy server (429, 503) is
      // asked again after its Retry-After, twice at most; then the page says so.
      var loads = 0;
      var loadingNote = "";
      function later(seconds) {
        return new Promise(function (resolve) { setTimeout(resolve, seconds * 1000); });
      }
      function ask(path, attempt, generation) {
        return request("GET", path).then(function (answer) {
          if ((answer.status === 429 || answer.status === 503) && attempt < 2 &&
              generation === loads) {
            var wait = Math.min(Math.max(answer.retryAfter || 1, 1), 10);
            loadingNote = "Loading your votes: the server is busy, trying again in " + wait + " s.";
            say(loadingNote);
            return later(wait).then(function () { return ask(path, attempt + 1, generation); });
          }
          return answer;
        });
      }
      function loadVotes() {
        var generation = ++loads;
        touched = {};
        var unknown = {};
        var ids = [];
        Array.prototype.forEach.call(
          document.querySelectorAll(".vote-button[data-feature]"), function (button) {
            var id = button.getAttribute("data-feature");
            if (!unknown[id]) { unknown[id] = true; ids.push(id); }
          });
        if (!ids.length) { return; }
        var queries = [];
        Array.prototype.forEach.call(document.querySelectorAll("[data-votes]"), function (group) {
          var query = group.getAttribute("data-votes");
          if (group.querySelector(".vote-button[data-feature]") && queries.indexOf(query) < 0) {
            queries.push(query);
          }
        });
        var failed = null;
        function apply(feature) {
          var id = String(feature && feature.id);
          if (generation !== loads || !unknown[id]) { return; }
          delete unknown[id];
          if (!busy[id] && !touched[id] && typeof feature.votes === "number") {
            show(id, feature.votes, feature.voted === true);
          }
        }
        Promise.all(queries.map(function (query) {
          return ask("/features" + query, 0, generation).then(function (answer) {
            if (answer.ok && answer.json && Array.isArray(answer.json.features)) {
              answer.json.features.forEach(apply);
            } else {
              failed = failed || answer;
            }
          });
        })).then(function () {
          var left = Object.keys(unknown);
          if (failed || generation !== loads || left.length > 10) { return; }
          return Promise.all(left.map(function (id) {
            return ask("/features/" + id, 0, generation).then(function (answer) {
              if (answer.ok && answer.json) {
                apply(answer.json);
              } else if (answer.status === 404) {
                delete unknown[id];
              } else {
                failed = failed || answer;
              }
            });
          }));
        }).then(function () {
          if (generation !== loads) { return; }
          if (failed || Object.keys(unknown).length) {
            say("Your earlier votes could not be loaded" +
              (failed ? " (HTTP " + failed.status + ")" : "") +
              ", so some buttons may not show them. Reload the page to try again.");
          } else if (status && status.textContent === loadingNote) {
            say("");
          }
        }, function () {
          if (generation === loads) {
            say("Could not reach the server to load your votes; some buttons may not show them.");
          }
        });
      }

      Array.prototype.forEach.call(
        document.querySelectorAll(".vote-button[data-feature]"), function (button) {
          button.disabled = false;
          button.addEventListener("click", function () { toggle(button); });
        });
      if (!drawnForVoter && !fresh) { loadVotes(); }
      // A page restored from the back/forward cache shows the votes of when it was left: ask
      // again.
      window.addEventListener("pageshow", function (event) {
        if (event.persisted) { loadVotes(); }
      });

      var form = document.getElementById("suggest-form");
      if (form) {
        var fieldset = form.querySelector("fieldset");
        var title = form.querySelector('[name="title"]');
        var description = form.querySelector('[name="description"]');
        var send = document.getElementById("suggest-send");
        var done = document.getElementById("suggest-status");
        var length = function (text) { return Array.from(text).length; };
        var check = function () {
          var t = title.value.trim(), d = description.value.trim();
          send.disabled = !(t && d && length(title.value) <= 254 && length(description.value) <= 2000);
        };
        fieldset.disabled = false;
        title.addEventListener("input", check);
        description.addEventListener("input", check);
        check();
        form.addEventListener("submit", function (event) {
          event.preventDefault();
          check();
          if (send.disabled) { return; }
          send.disabled = true;
          done.textContent = "Sending…";
          request("POST", "/suggestions", {
            title: title.value.trim(), description: description.value.trim()
          }).then(function (answer) {
            if (answer.ok) {
              form.reset();
              done.textContent = "Thank you. Your suggestion is waiting for approval.";
            } else {
              done.textContent = failure(answer);
            }
            check();
          }, function () {
            done.textContent = "Could not reach the server; nothing was sent.";
            check();
          });
        });
      }
    })();
    """#
}
