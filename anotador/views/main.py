"""The welcome page and the health check."""

from flask import Blueprint
from flask import render_template

bp = Blueprint("main", __name__)


@bp.get("/")
def index() -> str:
    """Show the welcome page."""
    return render_template("main/index.html")


@bp.get("/healthz")
def healthz() -> dict[str, str]:
    """Answer ``{"status": "ok"}`` without touching the database."""
    return {"status": "ok"}
