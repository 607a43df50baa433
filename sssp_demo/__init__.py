"""Shortest paths on GPU priority queues: parBucketHeap, parDijkstra, baselines, the planner.

Not built yet: the shortest-paths issue brings it.
"""
