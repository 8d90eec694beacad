"""The bundled pizza-delivery example (``polygon demo --example pizza``)."""
