{"item": "{{params.items}}", "list": "{{params.list}}"}
