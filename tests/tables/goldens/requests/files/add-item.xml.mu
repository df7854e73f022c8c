<AddItem><Title>{{params.title}}</Title><Price>{{params.price}}</Price>{{#params.tags}}<Tag>{{.}}</Tag>{{/params.tags}}</AddItem>
