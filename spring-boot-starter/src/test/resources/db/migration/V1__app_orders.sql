-- The application's own first migration, in Flyway's default location (FlywayMigrationsTest).
CREATE TABLE orders (id BIGINT AUTO_INCREMENT PRIMARY KEY, item VARCHAR(100) NOT NULL);
