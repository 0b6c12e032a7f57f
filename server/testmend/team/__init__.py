"""A team's migration on a queue: ``testmend migrate --broker`` enqueues one task per file,
``testmend worker`` runs them in each machine's own checkout (Celery, a Redis or RabbitMQ
broker), and every run is kept in the team's Postgres store (docs/scale.md).

``tasks``: what a task carries and the Celery app both sides share; ``runtime``: a worker's
side of a task; ``batches``: the enqueuing side (a batch's tasks sent, followed in the store).
Needs ``pip install 'testmend[team]'``."""
