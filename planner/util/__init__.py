"""Cross-cutting helpers (time parsing, text normalisation, atomic writes)."""
