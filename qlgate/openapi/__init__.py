"""Tables from OpenAPI contracts: ``qlgate import openapi`` and the eBay REST tables.

``load`` reads a JSON or YAML file, ``normalise`` turns OpenAPI 3.x and Swagger 2
into one operation model (``model``, schemas resolved by ``schemas``), ``writer``
writes one table (and JSON body template) per operation, ``importer`` drives the
command, and ``runtime`` is what the generated tables' shared patch calls.
"""
