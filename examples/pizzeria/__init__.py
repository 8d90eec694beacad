"""The bundled Croatian example: a pizzeria order line in Zagreb (``polygon demo --example pizzeria``)."""
