-- show and describe read the loaded tables and routes: they wait for nothing.
tables = show tables;
about = describe items;
routes = show routes;
return {"tables": "{tables}", "about": "{about}", "routes": "{routes}"};
