"""The app factory: :func:`create_app` builds the Starlette application of ``cardlab serve``.

Routes: ``/`` (the front page), ``/<slug>`` for each page of :mod:`cardlab.web.pages` (GET: the
form; POST: run it), each page's own routes, ``/jobs/<id>`` (the job's state as JSON, polled by the
page), ``/jobs/<id>/answer`` (its answer as an HTML fragment), ``/jobs/<id>/cancel`` (POST) and
``/jobs/<id>/files/<name>`` (a download the answer offers), ``/static/...`` (the CSS and script
shipped in the package). Nothing else is served: no file of the server is read but the package's
own static files and templates, and uploads are kept in memory only for the job that reads them.
"""

from __future__ import annotations

import asyncio
import mimetypes
import secrets
import sys
from typing import Any, Awaitable, Callable

from cardlab.errors import CardlabError
from cardlab.web.jobs import Job, JobRunner, Limits
from cardlab.web.page import Page
from cardlab.web.pages import load_pages
from cardlab.web.render import environment
from cardlab.web.uploads import Form, read_body, read_form

__all__ = ["create_app", "SESSION_COOKIE", "session_of", "cross_site"]

SESSION_COOKIE = "cardlab_session"
_SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; img-src 'self' data:; style-src 'self'; "
                                 b"script-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; "
                                 b"form-action 'self'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]

Scope = dict[str, Any]
ASGI = Callable[[Scope, Any, Any], Awaitable[None]]


def cross_site(scope: Scope) -> bool:
    """Whether a request that changes something (not GET or HEAD) comes from another site's page:
    the browser says so in ``Sec-Fetch-Site``, or sends an ``Origin`` other than the address
    the request went to. A request with neither (a script, curl) is not a browser's cross-site one.

    >>> post = {"method": "POST", "headers": [(b"host", b"127.0.0.1:8000")]}
    >>> cross_site(dict(post, headers=post["headers"] + [(b"origin", b"http://127.0.0.1:8000")]))
    False
    >>> cross_site(dict(post, headers=post["headers"] + [(b"origin", b"https://evil.example")]))
    True

    A browser that says ``Sec-Fetch-Site`` is believed: under ``Referrer-Policy: no-referrer``
    Chromium sends ``Origin: null`` with the page's own form posts.

    >>> cross_site(dict(post, headers=post["headers"] + [(b"origin", b"null"), (b"sec-fetch-site", b"same-origin")]))
    False
    """
    if scope.get("method", "GET") in ("GET", "HEAD", "OPTIONS"):
        return False
    headers = {name.lower(): value.decode("latin-1") for name, value in scope.get("headers", [])}
    fetch_site = headers.get(b"sec-fetch-site")
    if fetch_site is not None:
        return fetch_site not in ("same-origin", "none")
    origin = headers.get(b"origin")
    if origin is None:
        return False
    host = headers.get(b"host", "")
    return origin.partition("://")[2].rstrip("/") != host or not host


class _Sessions:
    """ASGI middleware: every browser gets a random session cookie (HttpOnly, SameSite=Strict);
    ``scope["cardlab.session"]`` holds it for the handlers. Also adds the security headers, and
    refuses (403) a cross-site form post (:func:`cross_site`): without a cookie it was a new
    session each time, escaping the per-session cap on jobs."""

    def __init__(self, app: ASGI) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if cross_site(scope):
            await send({"type": "http.response.start", "status": 403,
                        "headers": [(b"content-type", b"text/plain; charset=utf-8")] + _SECURITY_HEADERS})
            await send({"type": "http.response.body", "body": b"cross-site requests are refused\n"})
            return
        session, new = None, False
        for name, value in scope.get("headers", []):
            if name == b"cookie":
                for part in value.decode("latin-1").split(";"):
                    key, _, token = part.strip().partition("=")
                    if key == SESSION_COOKIE and 16 <= len(token) <= 64 and token.replace("-", "").replace("_", "").isalnum():
                        session = token
        if session is None:
            session, new = secrets.token_urlsafe(24), True
        scope["cardlab.session"] = session

        async def sending(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", [])) + _SECURITY_HEADERS
                if new:
                    headers.append((b"set-cookie", f"{SESSION_COOKIE}={session}; Path=/; HttpOnly; "
                                                   "SameSite=Strict".encode()))
                message = dict(message, headers=headers)
            await send(message)

        await self.app(scope, receive, sending)


def session_of(request: Any) -> str:
    """The session token of ``request`` (set by the session middleware)."""
    token: str = request.scope["cardlab.session"]
    return token


def create_app(limits: Limits | None = None, *, loopback_only: bool = True) -> Any:
    """The workbench application. ``loopback_only``: accept only requests addressed to this machine
    by name (Host ``127.0.0.1``, ``localhost``, ``::1``), so a web page elsewhere cannot reach it
    through a rebound DNS name."""
    from starlette.applications import Starlette
    from starlette.exceptions import HTTPException
    from starlette.middleware import Middleware
    from starlette.middleware.trustedhost import TrustedHostMiddleware
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    runner = JobRunner(limits)
    pages = load_pages()
    env = environment()

    def render(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        body = env.get_template(template).render(request=request, pages=pages, **context)
        return HTMLResponse(body, status_code=status)

    def page_view(page: Page) -> Callable[[Request], Awaitable[Response]]:
        async def view(request: Request) -> Response:
            session = session_of(request)
            values = dict(page.defaults)
            message: str | None = None
            line: int | None = None
            job: Job | None = None
            if request.method == "POST":
                try:
                    form = await read_form(request, runner.limits.upload_bytes)
                    values.update(form.fields)
                    spec = page.prepare(form)
                    job = runner.submit(session, page.slug, spec)
                    job.fields = dict(form.fields)
                except CardlabError as error:
                    message, line = str(error), getattr(error, "line", None)
                if job is not None:
                    await asyncio.get_running_loop().run_in_executor(None, job.finished.wait, page.quick_wait)
            elif "job" in request.query_params:
                job = runner.get(session, request.query_params["job"])
                if job is None:
                    message = "that job is not one of yours, or it has been forgotten; ask again"
                else:
                    values.update(job.fields)
            status = 400 if message else 200
            if job is not None and job.error_line is not None:
                line = job.error_line
            return render(request, page.template, status, page=page, form=values, message=message, job=job,
                          error_line=line if isinstance(line, int) else None)
        return view

    def own_job(request: Request) -> Job:
        job = runner.get(session_of(request), request.path_params["job_id"])
        if job is None:
            raise HTTPException(404, "no such job in this session")
        return job

    async def job_status(request: Request) -> Response:
        return JSONResponse(own_job(request).status())

    async def job_answer(request: Request) -> Response:
        job = own_job(request)
        return render(request, "job.html", job=job)

    async def job_cancel(request: Request) -> Response:
        job = own_job(request)
        runner.cancel(session_of(request), job.id)
        await asyncio.get_running_loop().run_in_executor(None, job.finished.wait, 1.5)
        if "application/json" in request.headers.get("accept", ""):
            return JSONResponse(job.status())
        return RedirectResponse(f"/{job.page}?job={job.id}", status_code=303)

    async def job_file(request: Request) -> Response:
        job = own_job(request)
        name = request.path_params["name"]
        if job.answer is None or name not in job.answer.downloads:
            raise HTTPException(404, "no such file in this answer")
        kind = mimetypes.guess_type(name)[0] or "application/octet-stream"
        safe = "".join(c for c in name if c.isalnum() or c in "._-") or "download"
        return Response(job.answer.downloads[name], media_type=kind,
                        headers={"content-disposition": f'attachment; filename="{safe}"'})

    async def index(request: Request) -> Response:
        return render(request, "index.html", page=None)

    from cardlab.web.api import ENDPOINTS, MAX_BODY, body_fields, openapi

    by_slug = {p.slug: p for p in pages}
    endpoints = [e for e in ENDPOINTS.values() if e.slug in by_slug]

    async def api_question(request: Request) -> Response:
        """``POST /api/<page>``: the page's question from a JSON body; the CLI's JSON answer."""
        endpoint = ENDPOINTS.get(request.path_params["question"])
        if endpoint is None or endpoint.slug not in by_slug:
            return JSONResponse({"error": "no such question; the questions are "
                                          + ", ".join(f"/api/{e.slug}" for e in endpoints)}, status_code=404)
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return JSONResponse({"error": "send the question as JSON (Content-Type: application/json)"},
                                status_code=415)
        try:
            body = await read_body(request, MAX_BODY, "the body")
        except CardlabError as error:
            return JSONResponse({"error": str(error)}, status_code=413)
        try:
            spec = by_slug[endpoint.slug].prepare(Form(fields=body_fields(body, endpoint)))
            job = runner.submit(session_of(request), endpoint.slug, spec)
        except CardlabError as error:
            return JSONResponse({"error": str(error)}, status_code=400)
        await asyncio.get_running_loop().run_in_executor(None, job.finished.wait, runner.limits.time_limit + 30)
        answer = job.answer
        if job.state != "done" or answer is None:
            return JSONResponse({"error": job.message or f"the job is {job.state}"}, status_code=422)
        name = next((n for n in answer.downloads if n.endswith(".json")), None)
        if name is None:
            return JSONResponse({"error": "this question has no JSON answer"}, status_code=422)
        return Response(answer.downloads[name], media_type="application/json")

    async def api_description(request: Request) -> Response:
        from cardlab import __version__

        return JSONResponse(openapi(__version__))

    async def api_page(request: Request) -> Response:
        import json

        return render(request, "api.html", page=None, endpoints=[(e, json.dumps(e.example)) for e in endpoints],
                      origin=f"{request.url.scheme}://{request.url.netloc}")

    async def not_found(request: Request, error: Exception) -> Response:
        status = getattr(error, "status_code", 404)
        detail = getattr(error, "detail", "") or "not found"
        if request.url.path.startswith(("/jobs/", "/api/")) and "text/html" not in request.headers.get("accept", ""):
            return JSONResponse({"error": detail}, status_code=status)
        return render(request, "error.html", status, page=None, code=status, detail=detail)

    async def server_error(request: Request, error: Exception) -> Response:
        print(f"cardlab serve: {request.method} {request.url.path}: {error!r}", file=sys.stderr)
        return HTMLResponse("<!doctype html><title>cardlab: error</title><p>Something went wrong on the "
                            "server; the details are in its log.</p>", status_code=500)

    routes: list[Any] = [Route("/", index), Route("/api", api_page), Route("/api/openapi.json", api_description),
                         Route("/api/{question}", api_question, methods=["POST"])]
    for page in pages:
        routes.append(Route(f"/{page.slug}", page_view(page), methods=["GET", "POST"], name=page.slug))
        routes.extend(page.routes)
    routes += [
        Route("/jobs/{job_id}", job_status),
        Route("/jobs/{job_id}/answer", job_answer),
        Route("/jobs/{job_id}/cancel", job_cancel, methods=["POST"]),
        Route("/jobs/{job_id}/files/{name}", job_file),
        Mount("/static", app=StaticFiles(packages=[("cardlab.web", "static")]), name="static"),
    ]
    middleware = [Middleware(_Sessions)]
    if loopback_only:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=["127.0.0.1", "localhost", "::1", "[::1]"]))

    from contextlib import asynccontextmanager

    @asynccontextmanager
    async def lifespan(app: Any) -> Any:
        runner.warm()
        yield
        runner.shutdown()

    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan,
                    exception_handlers={HTTPException: not_found, 404: not_found, 405: not_found,
                                        500: server_error, Exception: server_error})
    app.state.runner = runner
    app.state.pages = pages
    return app
